/** klvscope's version, as the CLI's --version and the service's /version report it (a test keeps it equal to package.json's). */
export const APP_VERSION = '0.1.0';
