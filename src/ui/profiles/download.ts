/** Saves text as a file through the browser's download (a Blob behind an <a download>). */
export function downloadText(fileName: string, text: string, type = 'application/json'): void {
    const url = URL.createObjectURL(new Blob([text], { type }));
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    link.style.display = 'none';
    document.body.append(link);
    link.click();
    link.remove();
    // Revoking at once can cancel the download in some browsers; a minute is plenty.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
