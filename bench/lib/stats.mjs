/**
 * The middle value (the upper one of an even count); what the bench reports of repeated runs.
 * @param {number[]} xs
 * @returns {number}
 */
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
