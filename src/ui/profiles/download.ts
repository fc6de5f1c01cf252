/** Saves text as a file through the browser's download (a Blob behind an <a download>). */
export function downloadText(fileName: string, text: string, type = 'application/json'): void {
    downloadBlob(fileName, new Blob([text], { type }));
}

/** Saves a Blob (a zip of skills, say) as a file through the browser's download. */
export function downloadBlob(fileName: string, blob: Blob): void {
    const url = URL.createObjectURL(blob);
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
