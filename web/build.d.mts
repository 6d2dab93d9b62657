/** Types of build.mjs, for the TypeScript tests that build the viewer first. */
export declare const viewerDistDir: string;
export declare const dashboardDistDir: string;
export declare const relayConsoleDistDir: string;
/** Builds every app; resolves with the size of each output file in bytes. */
export declare function buildWeb(): Promise<Record<string, number>>;
