/** Whether the addon was built and loaded here (index.js). */
export declare const available: boolean;
/** glibc's malloc_trim(0): malloc's free pages given back to the system; true if any went back. */
export declare function trimMalloc(): boolean;
