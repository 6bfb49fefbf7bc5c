/**
 * NIST SP 800-63B for chosen passwords: length (see PASSWORD_MIN_LENGTH / PASSWORD_MAX_LENGTH), no composition
 * rules, and refused when it is a common or breached password (the list of @zxcvbn-ts/language-common, about
 * 49,000 passwords from breaches), one character repeated, or the e-mail address or its name.
 */
let common: Promise<Set<string>> | undefined;

/** The list, loaded once on first use and lower-cased. */
function commonPasswords(): Promise<Set<string>> {
  common ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary['passwords-common'].map((p) => String(p).toLowerCase())),
  );
  return common;
}

export const weakPasswordMessages = {
  common:
    'Dit wachtwoord is te makkelijk te raden: het staat op een lijst van veelgebruikte of uitgelekte wachtwoorden. Kies een ander wachtwoord.',
  repeated: 'Je wachtwoord mag niet uit één steeds herhaald teken bestaan. Kies een ander wachtwoord.',
  email: 'Je wachtwoord mag je e-mailadres (of het deel vóór de @) niet bevatten. Kies een ander wachtwoord.',
} as const;

/** Why the password is too weak (a Dutch message), or undefined when it may be used. */
export async function weakPasswordReason(password: string, email: string): Promise<string | undefined> {
  const lower = password.toLowerCase();
  const address = email.trim().toLowerCase();
  const name = address.split('@')[0] ?? '';
  if (lower === address || lower === name || lower.includes(address)) return weakPasswordMessages.email;
  // A short name ('jo') is part of many good passwords; from four characters on it is not chance.
  if (name.length >= 4 && lower.includes(name)) return weakPasswordMessages.email;
  if (/^(.)\1*$/su.test(password)) return weakPasswordMessages.repeated;
  if ((await commonPasswords()).has(lower)) return weakPasswordMessages.common;
  return undefined;
}
