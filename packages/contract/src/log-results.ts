/**
 * The outcomes an operation-log or login-log row records (DESIGN.md §9). Kept apart from the log
 * schemas so the console can read them without bundling the schema library.
 */
export const OPERATION_RESULTS = ['success', 'denied', 'failed'] as const
export const LOGIN_RESULTS = [
  'success',
  'failure',
  'locked',
  'frozen',
  'logout',
  'revoked',
  // DESIGN.md §14
  'mfa_failure',
  'recovery_used',
  'password_expired',
] as const
