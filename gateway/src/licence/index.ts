/** The licence module's entry: what the inspection service and the CLI use. */
export { LicenceError, type LicenceErrorCode } from './licence-error.js';
export { LICENCE_FORMAT_VERSION, type LicencePayload } from './licence-payload.js';
export { issueLicence, verifyLicence, type LicenceStatus, type LicenceVerdict } from './licence-token.js';
export { expiryAfterDays, expiryFromText } from './licence-expiry.js';
export { NODE_ID_FILE_NAME, NODE_ID_PATTERN, generateNodeId, isNodeId, loadNodeId } from './node-identity.js';
export { generateVendorKeyPair, parseVendorPrivateKey, parseVendorPublicKey, publicKeyFingerprint } from './vendor-keys.js';
export { BUILT_IN_VENDOR_PUBLIC_KEY_PEM, loadVendorPublicKey, readKeyFile, type VendorPublicKey } from './vendor-public-key.js';
export {
  LICENCE_FILE_NAME,
  LicenceState,
  type LicenceDetails,
  type LicenceMode,
  type LicenceStateOptions,
  type LicenceStatusReport,
} from './licence-state.js';
export { licenceImportBodySchema, type LicenceImportBody } from './licence-import-body.js';
