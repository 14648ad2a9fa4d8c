/** An error whose message is shown to the user as is; `status` is both the HTTP status and the body code. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/** 503: the server cannot answer right now; the client may try again after `retryAfterSeconds`. */
export class UnavailableError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(503, message)
  }
}

export const badRequest = (msg: string) => new AppError(400, msg)
export const unauthorized = (msg: string) => new AppError(401, msg)
export const forbidden = (msg: string) => new AppError(403, msg)
export const notFound = (msg: string) => new AppError(404, msg)
export const conflict = (msg: string) => new AppError(409, msg)
