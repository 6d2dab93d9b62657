/**
 * Descriptors a STANAG 4609 program needs in its PMT (ISO 13818-1 2.6):
 * registration, metadata_pointer, metadata and metadata_STD. Each returns
 * the whole descriptor (tag, length, body); concatenate them with
 * `descriptorLoop` for a PMT loop.
 */

export const REGISTRATION_DESCRIPTOR_TAG = 0x05;
export const METADATA_POINTER_DESCRIPTOR_TAG = 0x25;
export const METADATA_DESCRIPTOR_TAG = 0x26;
export const METADATA_STD_DESCRIPTOR_TAG = 0x27;

/** ISO 13818-1 Table 2-82: metadata_application_format 0x0100 is "general" (MISB ST 1402 uses it). */
export const METADATA_APPLICATION_FORMAT_GENERAL = 0x0100;
/** ISO 13818-1 Table 2-85: metadata_format 0xFF means "identified by metadata_format_identifier". */
export const METADATA_FORMAT_IDENTIFIED = 0xff;

/** Identifies the KLV metadata format in registration and metadata descriptors (SMPTE RA, MISB ST 1402). */
export const KLVA_FORMAT_IDENTIFIER = 'KLVA';

/** A 32-bit format identifier from four ASCII characters or a number. */
export function formatIdentifier(id: string | number): number {
  if (typeof id === 'number') return id >>> 0;
  if (id.length !== 4) throw new RangeError(`format identifier '${id}' must be 4 characters`);
  return ((id.charCodeAt(0) << 24) | (id.charCodeAt(1) << 16) | (id.charCodeAt(2) << 8) | id.charCodeAt(3)) >>> 0;
}

/** ISO 13818-1 2.6.8: registration_descriptor, a format_identifier and optional additional_identification_info. */
export function registrationDescriptor(format: string | number, additionalInfo: Uint8Array = new Uint8Array(0)): Uint8Array {
  const body = new Uint8Array(4 + additionalInfo.length);
  writeUint32(body, 0, formatIdentifier(format));
  body.set(additionalInfo, 4);
  return descriptor(REGISTRATION_DESCRIPTOR_TAG, body);
}

export interface MetadataFormatFields {
  /** metadata_application_format; 0xFFFF adds `applicationFormatIdentifier`. Default 0x0100 (general). */
  applicationFormat?: number;
  applicationFormatIdentifier?: string | number;
  /** metadata_format; 0xFF (the default) adds `formatIdentifier`. */
  format?: number;
  /** metadata_format_identifier; default 'KLVA'. */
  formatIdentifier?: string | number;
  /** metadata_service_id; default 0. */
  serviceId?: number;
}

function formatFields(fields: MetadataFormatFields): number[] {
  const out: number[] = [];
  const applicationFormat = fields.applicationFormat ?? METADATA_APPLICATION_FORMAT_GENERAL;
  out.push(applicationFormat >>> 8, applicationFormat & 0xff);
  if (applicationFormat === 0xffff) pushUint32(out, formatIdentifier(fields.applicationFormatIdentifier ?? 0));
  const format = fields.format ?? METADATA_FORMAT_IDENTIFIED;
  out.push(format);
  if (format === METADATA_FORMAT_IDENTIFIED) pushUint32(out, formatIdentifier(fields.formatIdentifier ?? KLVA_FORMAT_IDENTIFIER));
  out.push(fields.serviceId ?? 0);
  return out;
}

export interface MetadataPointerFields extends MetadataFormatFields {
  /** program_number of the program whose PMT carries the metadata stream (same transport stream). */
  programNumber: number;
}

/**
 * ISO 13818-1 2.6.58: metadata_pointer_descriptor for the program_info loop,
 * pointing at metadata carried in this transport stream
 * (metadata_locator_record_flag 0, MPEG_carriage_flags '00').
 */
export function metadataPointerDescriptor(fields: MetadataPointerFields): Uint8Array {
  const body = formatFields(fields);
  body.push(0x1f); // locator flag 0, MPEG_carriage_flags 00, 5 reserved bits
  body.push(fields.programNumber >>> 8, fields.programNumber & 0xff);
  return descriptor(METADATA_POINTER_DESCRIPTOR_TAG, Uint8Array.from(body));
}

/**
 * ISO 13818-1 2.6.60: metadata_descriptor for the ES_info loop of a metadata
 * stream, with decoder_config_flags '000' and DSM-CC_flag 0 (what MISB ST
 * 1402 prescribes for KLV).
 */
export function metadataDescriptor(fields: MetadataFormatFields = {}): Uint8Array {
  const body = formatFields(fields);
  body.push(0x0f); // decoder_config_flags 000, DSM-CC_flag 0, 4 reserved bits
  return descriptor(METADATA_DESCRIPTOR_TAG, Uint8Array.from(body));
}

export interface MetadataStdFields {
  /** metadata_input_leak_rate in units of 400 bit/s (22 bits). */
  inputLeakRate: number;
  /** metadata_buffer_size in units of 1024 bytes (22 bits). */
  bufferSize: number;
  /** metadata_output_leak_rate in units of 400 bit/s (22 bits). */
  outputLeakRate: number;
}

/** ISO 13818-1 2.6.62: metadata_STD_descriptor, three 22-bit fields each after 2 reserved bits. */
export function metadataStdDescriptor(fields: MetadataStdFields): Uint8Array {
  const body = new Uint8Array(9);
  [fields.inputLeakRate, fields.bufferSize, fields.outputLeakRate].forEach((value, i) => {
    if (value < 0 || value > 0x3fffff) throw new RangeError(`metadata_STD field ${value} does not fit 22 bits`);
    body[i * 3] = 0xc0 | (value >>> 16);
    body[i * 3 + 1] = (value >>> 8) & 0xff;
    body[i * 3 + 2] = value & 0xff;
  });
  return descriptor(METADATA_STD_DESCRIPTOR_TAG, body);
}

/** ISO 13818-1 2.6.1: descriptor_tag, descriptor_length, body (at most 255 bytes). */
export function descriptor(tag: number, body: Uint8Array): Uint8Array {
  if (body.length > 255) throw new RangeError(`descriptor 0x${tag.toString(16)} body of ${body.length} bytes exceeds 255`);
  const out = new Uint8Array(2 + body.length);
  out[0] = tag;
  out[1] = body.length;
  out.set(body, 2);
  return out;
}

/** Descriptors back to back, as a PMT descriptor loop. */
export function descriptorLoop(...descriptors: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(descriptors.reduce((sum, d) => sum + d.length, 0));
  let p = 0;
  for (const d of descriptors) {
    out.set(d, p);
    p += d.length;
  }
  return out;
}

function writeUint32(buf: Uint8Array, pos: number, value: number): void {
  buf[pos] = value >>> 24;
  buf[pos + 1] = (value >>> 16) & 0xff;
  buf[pos + 2] = (value >>> 8) & 0xff;
  buf[pos + 3] = value & 0xff;
}

function pushUint32(out: number[], value: number): void {
  out.push(value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff);
}
