// Custom error classes with codes and details, caught and turned into an
// API error response.
class AppError extends Error {
  constructor(message, { code = "INTERNAL", status = 500, details } = {}) {
    super(message);
    this.name = this.constructor.name;
    this.code = code; this.status = status; this.details = details;
  }
  toJSON() { return { error: this.code, message: this.message, ...(this.details && { details: this.details }) }; }
}
class NotFoundError extends AppError { constructor(what) { super(`${what} not found`, { code: "NOT_FOUND", status: 404 }); } }
class ValidationError extends AppError { constructor(fields) { super("validation failed", { code: "INVALID", status: 422, details: fields }); } }
function handle(req) {
  try {
    if (!req.id) throw new ValidationError({ id: "required" });
    if (req.id > 100) throw new NotFoundError(`user ${req.id}`);
    if (req.id === 13) null.boom;
    return { status: 200, body: { id: req.id } };
  } catch (e) {
    if (e instanceof AppError) return { status: e.status, body: e.toJSON(), name: e.name, chain: [e instanceof NotFoundError, e instanceof AppError, e instanceof Error] };
    return { status: 500, body: { error: "INTERNAL", type: e.constructor.name } };
  }
}
return [{ id: 5 }, {}, { id: 101 }, { id: 13 }].map(handle).concat([{ str: String(new NotFoundError("x")), stackType: typeof new AppError("s").stack }]);
