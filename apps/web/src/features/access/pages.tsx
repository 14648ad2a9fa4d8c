export { MyAccessPage } from './my-access-page'
export { ApprovalCenterPage } from './approval-page'
export { EligibilityManagePage } from './eligibility-page'
