import CGSL

/// Process-wide GSL set-up.
enum GSL {
  /// Turns off GSL's default error handler, which aborts the process on a domain error;
  /// callers check return values instead. Runs once, thread-safely.
  static let configured: Void = {
    _ = gsl_set_error_handler_off()
  }()
}
