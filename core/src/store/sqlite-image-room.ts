/**
 * Room to grow for a database in sql.js's in-memory file system. That file
 * grows by an eighth at a time, copying itself whole at each step: writing
 * a 5 MB part took about 30 copies, 32 MB copied (issue 34: 323 MB copied
 * for the 2 GB recording's stored inspection, more than six times what
 * SQLite wrote, most of the stored pass's extra time in sql.js).
 *
 * A database opened from its image followed by zeros starts with that room:
 * SQLite takes the size from the file's header, not from the file's length,
 * so the zeros are free space to it (exactly what it reads past the end of a
 * file), and the pages it adds fill them in place. What it writes is the
 * same, byte for byte, and sql.js's export() copies only the pages the
 * header counts (its backup into a file of that size), never the zeros.
 */

/** `image` followed by zeros up to `capacity` bytes (a copy; the image itself when it is as large already). */
export function withRoomToGrow(image: Uint8Array, capacity: number): Uint8Array {
  if (image.byteLength >= capacity) return image;
  const file = new Uint8Array(capacity);
  file.set(image);
  return file;
}
