// The installations' table (OAuth mode); hidden where the coordinator has none to list.
import { $, el } from "./dom.browser.js";
import { time } from "./format.browser.js";

export function renderInstallations(page) {
  $("installations-panel").hidden = page === null;
  if (page === null) return;
  $("installations")
    .querySelector("tbody")
    .replaceChildren(
      ...page.installations.map((installation) => {
        const row = el("tr");
        row.append(
          el("td", installation.id),
          el("td", installation.teamName ?? installation.enterpriseName ?? ""),
          el("td", installation.status),
          el("td", time(installation.installedAt)),
        );
        return row;
      }),
    );
}
