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
 *
 * The room is handed to sql.js, not copied, and used again by the next
 * database once its database is closed. sql.js copies the array it opens
 * (its in-memory file system slices a new file's data), and a fresh array of
 * a part's 6 MB costs its every page faulted in, twice with the copy: about
 * 40 ms of the main thread per part on the bench machine, 0.4 s of the 2 GB
 * recording's stored inspection (issue 34). A room taken again is zeroed
 * first, so SQLite sees the same file as in a fresh one.
 */

/** Rooms of closed databases, ready for the next; a few, so that an idle process keeps little. */
const FREE_ROOMS: Uint8Array[] = [];
const MAX_FREE_ROOMS = 2;

/**
 * `image` followed by zeros up to `capacity` bytes, to open a database from
 * (a room of a closed database if one is free, else a new array; the image
 * itself when it is as large already). Give it back with releaseRoom() once
 * that database is closed.
 */
export function withRoomToGrow(image: Uint8Array, capacity: number): Uint8Array {
  if (image.byteLength >= capacity) return image;
  const free = FREE_ROOMS.findIndex((room) => room.byteLength === capacity);
  const file = free < 0 ? new Uint8Array(capacity) : FREE_ROOMS.splice(free, 1)[0].fill(0);
  file.set(image);
  return file;
}

/**
 * Opens a database on `file` (withRoomToGrow's) through `open`, handing sql.js the array itself:
 * its in-memory file system makes a new file of the array's `slice()` of all of it, which gives
 * the array here while `open` runs. Afterwards the array is an ordinary one again. `handedOver`
 * says whether sql.js took it (a version of sql.js that opens otherwise copies it, as before).
 */
export function openOnRoom<T>(file: Uint8Array, open: (file: Uint8Array) => T): { opened: T; handedOver: boolean } {
  let handedOver = false;
  Object.defineProperty(file, 'slice', {
    configurable: true,
    value(this: Uint8Array, start?: number, end?: number): Uint8Array {
      if (start !== 0 || end !== this.length) return Uint8Array.prototype.slice.call(this, start, end);
      handedOver = true;
      return this;
    },
  });
  try {
    return { opened: open(file), handedOver };
  } finally {
    delete (file as { slice?: unknown }).slice;
  }
}

/**
 * The file of a database held in its room (openOnRoom's, handed over; `byteSize` its pages, within
 * the room), as sql.js's export() gives it: the pages themselves, but for the header of the new
 * file export() backs the database up into, which has SQLite's change counter (offsets 24 and 92)
 * and schema cookie (40) at 1, and the file format versions (18, 19) at 1, rollback journal (sql.js
 * sets them). Changes the room's header in place: call it once no statement runs on the database
 * but its close. Saving this instead of export()'s copy spares a fresh array of the part's size,
 * faulted in page by page (issue 34: about 25 ms of the main thread per part).
 */
export function exportedFileInRoom(room: Uint8Array, byteSize: number): Uint8Array {
  if (byteSize > room.byteLength) throw new RangeError(`a database of ${byteSize} bytes is not held in a room of ${room.byteLength}`);
  const header = new DataView(room.buffer, room.byteOffset, 100);
  header.setUint8(18, 1);
  header.setUint8(19, 1);
  header.setUint32(24, 1);
  header.setUint32(40, 1);
  header.setUint32(92, 1);
  return room.subarray(0, byteSize);
}

/** Gives back a room withRoomToGrow() made, once the database opened on it is closed (it may write to it until then). */
export function releaseRoom(room: Uint8Array): void {
  if (FREE_ROOMS.includes(room)) return;
  FREE_ROOMS.push(room);
  // The oldest makes way: the next database most likely wants the size of the last closed.
  if (FREE_ROOMS.length > MAX_FREE_ROOMS) FREE_ROOMS.shift();
}
