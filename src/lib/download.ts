/** Saves `body` as a file from the browser (Blob + object URL + a temporary link). */
export function downloadFile(filename: string, mimeType: string, body: string): void {
  const url = URL.createObjectURL(new Blob([body], { type: mimeType }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
