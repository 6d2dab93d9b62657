/**
 * The licence module's error class. Bad tokens are not errors (verifying
 * returns a verdict); these codes are for what a caller must fix: a key that
 * is not an Ed25519 key, a payload the vendor tried to sign that breaks the
 * format, a token refused at install, a damaged node-id file.
 */
import { CodedError } from '@klvscope/core';

export type LicenceErrorCode =
  /** A PEM that is not an Ed25519 key of the kind asked for (public SPKI or private PKCS8). */
  | 'ERR_LICENCE_KEY_INVALID'
  /** A key file that cannot be read, or keygen asked to overwrite an existing key. */
  | 'ERR_LICENCE_KEY_FILE'
  /** A payload to sign that breaks the token format (issuing only). */
  | 'ERR_LICENCE_PAYLOAD_INVALID'
  /** A token refused at install: not valid for this node now; details carry `status` and `reason`. */
  | 'ERR_LICENCE_INVALID'
  /** The data folder's node-id file holds something that is not a node id. */
  | 'ERR_NODE_ID_INVALID';

export class LicenceError extends CodedError<LicenceErrorCode> {
  override readonly name: string = 'LicenceError';
}
