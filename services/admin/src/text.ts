/** Trimmed single-line text: control characters become spaces, NFC. */
export function cleanLine(value: string): string {
  return value
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .normalize('NFC')
    .trim()
}
