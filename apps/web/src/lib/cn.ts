import { clsx, type ClassValue } from 'clsx';

/** Joins class names (conditional ones included). */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
