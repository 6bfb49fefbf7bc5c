import type { Plugin } from 'vite';

/** The public pages written as dist/<route>/index.html. */
export const PRERENDERED: string[];
/** Vite plugin: after the client build, prerenders the public pages and the 404 page (see prerender.mjs). */
export function prerender(): Plugin;
