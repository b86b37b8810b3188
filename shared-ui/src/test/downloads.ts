/**
 * Catches files the page saves (a link with `download` clicked on a blob URL): their names and
 * blobs. jsdom has no object URLs, so they are faked here. Returns the saved files and an undo.
 */
export function catchDownloads() {
  const saved: { name: string; blob: Blob }[] = [];
  const blobs = new Map<string, Blob>();
  let n = 0;
  const create = jest.fn((blob: Blob) => {
    const url = `blob:test/${++n}`;
    blobs.set(url, blob);
    return url;
  });
  const revoke = jest.fn();
  Object.assign(URL, { createObjectURL: create, revokeObjectURL: revoke });
  const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    const blob = blobs.get(this.href);
    if (this.download && blob) saved.push({ name: this.download, blob });
  });
  return { saved, restore: () => click.mockRestore() };
}
