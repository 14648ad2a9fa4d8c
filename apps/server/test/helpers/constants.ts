export const TEST_ADMIN_PASSWORD = 'Admin@123456'
export const TEST_USER_PASSWORD = 'User@12345678'
