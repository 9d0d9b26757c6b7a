import type { FilesUploadV2Request, FileUploadV2 } from "slack-web-api-client";

/** What files.uploadV2 needs of a client: one Web API call, and one upload of bytes to a URL. */
export interface FileUploader {
  call<T extends Record<string, unknown>>(method: string, body: Record<string, unknown>): Promise<T>;
  uploadBytes(url: string, bytes: Uint8Array): Promise<void>;
}

async function bytesOf(file: FileUploadV2): Promise<Uint8Array> {
  if (file.file instanceof Blob) return new Uint8Array(await file.file.arrayBuffer());
  if (file.file instanceof ArrayBuffer) return new Uint8Array(file.file);
  if (ArrayBuffer.isView(file.file)) {
    const view = file.file as ArrayBufferView;
    return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  }
  return new TextEncoder().encode(file.content ?? "");
}

/**
 * `files.uploadV2`, which is not one Web API method but Slack's upload flow: for each file,
 * `files.getUploadURLExternal` (name and length) and a POST of its bytes to the URL it answers;
 * then one `files.completeUploadExternal` that shares them all (channel, thread, comment). Every
 * step fails as any call does, so the outbox retries or parks the run; a retried run uploads
 * again unless the upload is inside a `step()`.
 */
export async function uploadFilesV2(client: FileUploader, args: FilesUploadV2Request): Promise<Record<string, unknown>> {
  const files = "files" in args ? args.files : [args];
  const uploaded = [];
  for (const file of files) {
    const bytes = await bytesOf(file);
    const { upload_url, file_id } = await client.call<{ upload_url: string; file_id: string }>("files.getUploadURLExternal", {
      filename: file.filename,
      length: bytes.byteLength,
      alt_txt: file.alt_text,
      snippet_type: file.snippet_type,
    });
    await client.uploadBytes(upload_url, bytes);
    uploaded.push({ id: file_id, title: file.title ?? file.filename });
  }
  return client.call("files.completeUploadExternal", {
    files: uploaded,
    channel_id: args.channel_id,
    thread_ts: args.thread_ts,
    initial_comment: args.initial_comment,
  });
}
