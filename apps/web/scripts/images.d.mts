export declare const WIDTHS: number[];
export declare function renderImages(options?: { log?: (message: string) => void }): Promise<number>;
