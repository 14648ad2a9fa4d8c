/**
 * What a form does with its fields wrong, besides showing their messages: SPEC.md §5 has the refusal
 * logged, and it is logged as information, so the browser console shows no warning or error for a
 * mistake the user is already shown.
 */
export const logInvalidForm =
  (form: string) =>
  ({ errorFields }: { errorFields: unknown }) =>
    console.info(`${form}：表单未通过校验`, errorFields)
