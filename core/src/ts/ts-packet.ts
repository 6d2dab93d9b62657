/** ISO/IEC 13818-1 2.4.3.2: a transport packet is 188 bytes and starts with the sync byte 0x47. */
export const TS_PACKET_SIZE = 188;
export const TS_SYNC_BYTE = 0x47;
