/** Business constants the server and the screens share. */
export const ACCESS_CODE_LENGTH = 8;
export const CAROUSEL_SWIPE_THRESHOLD = 0.3;
export const CAROUSEL_TRANSITION_MS = 300;
export const SCROLL_TO_TOP_THRESHOLD_PX = 400;
export const TOAST_DURATION_MS = 5000;
export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const TOAST_SWIPE_THRESHOLD = 50;

export const OIDC_CLIENT_ID = 'web';
export const OIDC_REALM_PATH = '/realms/aandenken';
export const ACCESS_TOKEN_EXPIRING_NOTIFICATION_S = 60;
export const SILENT_REQUEST_TIMEOUT_S = 10;
export const STALE_STATE_AGE_S = 15 * 60;
export const CHECK_SESSION_INTERVAL_MS = 2000;
export const SILENT_RENEW_RETRY_MS = 5000;

export const PARTNER_APPROVAL_HOURS = '24-48';
