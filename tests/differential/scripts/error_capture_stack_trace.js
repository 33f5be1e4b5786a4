// A custom error written for Node: Error.captureStackTrace trims the
// constructor from the stack, unguarded, as most Node code calls it.
class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.name = "HttpError";
    this.status = status;
    Error.captureStackTrace(this, HttpError);
  }
}
try {
  throw new HttpError(404, "resource not found");
} catch (e) {
  return { name: e.name, status: e.status, message: e.message, isError: e instanceof Error, hasStack: typeof e.stack === "string" };
}
