export const TEST_ADMIN_PASSWORD = 'Admin@123456'
export const TEST_USER_PASSWORD = 'User@12345678'
/** The key of secrets at rest shared by every server of a test, in process or not (as instances sharing a database must) */
export const TEST_SECRET_KEY = 'test-secret-key-shared-by-every-instance'
