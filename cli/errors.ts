/**
 * The CLI's error classes. Commands throw them; `main.ts` alone maps them to an exit code and
 * a one-line message (plus a hint when there is one), never a stack trace.
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    readonly hint?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad flags or arguments: exit 2. */
export class UsageError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, 2, hint);
  }
}

/** Not logged in, or the credentials were refused: exit 4. */
export class AuthRequiredError extends CliError {
  constructor(message: string, hint = "run 'svc login' first") {
    super(message, 4, hint);
  }
}

/** Something the user named does not exist: exit 1. */
export class NotFoundError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, 1, hint);
  }
}

/** The command could not do its job: exit 1. */
export class FailedError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, 1, hint);
  }
}

/** The user pressed Ctrl-C or declined a prompt: exit 130. */
export class CancelledError extends CliError {
  constructor(message = 'cancelled') {
    super(message, 130);
  }
}

/** An error answer from the daemon, with its status and stable code. */
export class ApiRequestError extends CliError {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: unknown,
    hint: string | undefined = hintForStatus(status, code),
  ) {
    super(message, exitCodeForStatus(status), hint);
  }
}

function exitCodeForStatus(status: number): number {
  if (status === 401) return 4;
  if (status === 400 || status === 422) return 2;
  return 1;
}

function hintForStatus(status: number, code: string): string | undefined {
  if (status === 401 && code === 'operator_token_required')
    return 'the operator token is read from the data folder of a local daemon: pass --data or set SVC_DATA_DIR';
  if (status === 401) return "run 'svc login' (or set SVC_TOKEN / SVC_SECRET_KEY)";
  if (status === 402)
    return "API keys need the company or owner tier; on a local daemon the operator grants it: 'svc admin tier YOUR-EMAIL company' ('svc whoami' shows it)";
  if (status === 403 && code === 'verification_pending') return "verify your e-mail first: 'svc verify'";
  if (status === 403 && code === 'recent_login_required') return "run 'svc login' again, then retry within 10 minutes";
  if (status === 429) return 'wait a moment and try again';
  return undefined;
}
