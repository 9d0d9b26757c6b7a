/**
 * The Web API's method names, as the fake Slack knows them: the methods of slack-web-api-client's
 * typed tree (what `client.*` offers; test/unit/fakeMethods.test.ts keeps the two equal) and the
 * few newer ones Slack documents that it does not have yet. A name outside them is answered as
 * Slack answers a name it does not know: `{ ok: false, error: "unknown_method" }`. Kept as data,
 * so the kit bundles no Web API client.
 */
export const TREE_METHODS: readonly string[] = [
  "admin.apps.activities.list admin.apps.approve admin.apps.approved.list",
  "admin.apps.clearResolution admin.apps.requests.cancel admin.apps.requests.list",
  "admin.apps.restrict admin.apps.restricted.list admin.apps.uninstall",
  "admin.auth.policy.assignEntities admin.auth.policy.getEntities admin.auth.policy.removeEntities",
  "admin.barriers.create admin.barriers.delete admin.barriers.list admin.barriers.update",
  "admin.conversations.archive admin.conversations.bulkArchive admin.conversations.bulkDelete",
  "admin.conversations.bulkMove admin.conversations.convertToPrivate",
  "admin.conversations.convertToPublic admin.conversations.create admin.conversations.delete",
  "admin.conversations.disconnectShared admin.conversations.ekm.listOriginalConnectedChannelInfo",
  "admin.conversations.getConversationPrefs admin.conversations.getCustomRetention",
  "admin.conversations.getTeams admin.conversations.invite admin.conversations.lookup",
  "admin.conversations.removeCustomRetention admin.conversations.rename",
  "admin.conversations.requestSharedInvite.approve admin.conversations.requestSharedInvite.deny",
  "admin.conversations.requestSharedInvite.list admin.conversations.restrictAccess.addGroup",
  "admin.conversations.restrictAccess.listGroups admin.conversations.restrictAccess.removeGroup",
  "admin.conversations.search admin.conversations.setConversationPrefs",
  "admin.conversations.setCustomRetention admin.conversations.setTeams",
  "admin.conversations.unarchive admin.emoji.add admin.emoji.addAlias admin.emoji.list",
  "admin.emoji.remove admin.emoji.rename admin.functions.list admin.functions.permissions.lookup",
  "admin.functions.permissions.set admin.inviteRequests.approve admin.inviteRequests.approved.list",
  "admin.inviteRequests.denied.list admin.inviteRequests.deny admin.inviteRequests.list",
  "admin.roles.addAssignments admin.roles.listAssignments admin.roles.removeAssignments",
  "admin.teams.admins.list admin.teams.create admin.teams.list admin.teams.owners.list",
  "admin.teams.settings.info admin.teams.settings.setDefaultChannels",
  "admin.teams.settings.setDescription admin.teams.settings.setDiscoverability",
  "admin.teams.settings.setIcon admin.teams.settings.setName admin.usergroups.addChannels",
  "admin.usergroups.addTeams admin.usergroups.listChannels admin.usergroups.removeChannels",
  "admin.users.assign admin.users.getExpiration admin.users.invite admin.users.list",
  "admin.users.remove admin.users.session.clearSettings admin.users.session.getSettings",
  "admin.users.session.invalidate admin.users.session.list admin.users.session.reset",
  "admin.users.session.resetBulk admin.users.session.setSettings admin.users.setAdmin",
  "admin.users.setExpiration admin.users.setOwner admin.users.setRegular",
  "admin.users.unsupportedVersions.export admin.workflows.collaborators.add",
  "admin.workflows.collaborators.remove admin.workflows.permissions.lookup admin.workflows.search",
  "admin.workflows.unpublish api.test apps.connections.open apps.datastore.delete",
  "apps.datastore.get apps.datastore.put apps.datastore.query apps.datastore.update",
  "apps.event.authorizations.list apps.manifest.create apps.manifest.delete apps.manifest.export",
  "apps.manifest.update apps.manifest.validate apps.uninstall assistant.threads.setStatus",
  "assistant.threads.setSuggestedPrompts assistant.threads.setTitle auth.revoke auth.teams.list",
  "auth.test bookmarks.add bookmarks.edit bookmarks.list bookmarks.remove bots.info",
  "canvases.access.delete canvases.access.set canvases.create canvases.delete canvases.edit",
  "canvases.sections.lookup chat.appendStream chat.delete chat.deleteScheduledMessage",
  "chat.getPermalink chat.meMessage chat.postEphemeral chat.postMessage chat.scheduleMessage",
  "chat.scheduledMessages.list chat.startStream chat.stopStream chat.unfurl chat.update",
  "conversations.acceptSharedInvite conversations.approveSharedInvite conversations.archive",
  "conversations.canvases.create conversations.close conversations.create",
  "conversations.declineSharedInvite conversations.externalInvitePermissions.set",
  "conversations.history conversations.info conversations.invite conversations.inviteShared",
  "conversations.join conversations.kick conversations.leave conversations.list",
  "conversations.listConnectInvites conversations.mark conversations.members conversations.open",
  "conversations.rename conversations.replies conversations.setPurpose conversations.setTopic",
  "conversations.unarchive dnd.endDnd dnd.endSnooze dnd.info dnd.setSnooze dnd.teamInfo emoji.list",
  "entity.presentDetails files.completeUploadExternal files.delete files.getUploadURLExternal",
  "files.info files.list files.remote.add files.remote.info files.remote.list files.remote.remove",
  "files.remote.share files.remote.update files.revokePublicURL files.sharedPublicURL files.upload",
  "files.uploadV2 functions.completeError functions.completeSuccess migration.exchange",
  "oauth.v2.access oauth.v2.exchange openid.connect.token openid.connect.userInfo pins.add",
  "pins.list pins.remove reactions.add reactions.get reactions.list reactions.remove reminders.add",
  "reminders.complete reminders.delete reminders.info reminders.list search.all search.files",
  "search.messages slackLists.access.delete slackLists.access.set slackLists.create",
  "slackLists.download.get slackLists.download.start slackLists.items.create",
  "slackLists.items.delete slackLists.items.deleteMultiple slackLists.items.info",
  "slackLists.items.list slackLists.items.update slackLists.update stars.add stars.list",
  "stars.remove team.accessLogs team.billableInfo team.billing.info team.externalTeams.disconnect",
  "team.externalTeams.list team.info team.integrationLogs team.preferences.list team.profile.get",
  "tooling.tokens.rotate usergroups.create usergroups.disable usergroups.enable usergroups.list",
  "usergroups.update usergroups.users.list usergroups.users.update users.conversations",
  "users.deletePhoto users.discoverableContacts.lookup users.getPresence users.identity users.info",
  "users.list users.lookupByEmail users.profile.get users.profile.set users.setPhoto",
  "users.setPresence views.open views.publish views.push views.update workflows.triggers.create",
  "workflows.triggers.delete workflows.triggers.list workflows.triggers.update",
].flatMap((line) => line.split(" "));

/** Methods Slack documents that slack-web-api-client's tree does not have yet. */
export const NEWER_METHODS: readonly string[] = ["agents.sessions.rename", "agents.sessions.setStatus"];

const KNOWN = new Set([...TREE_METHODS, ...NEWER_METHODS]);

export function isSlackMethod(method: string): boolean {
  return KNOWN.has(method);
}
