import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { ApiFailure } from './api.js';

/** Runs an async action with a busy flag and the error sentence to show (role=alert reads it out). */
export function useAction<A extends unknown[]>(fn: (...args: A) => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (...args: A) => {
    setBusy(true);
    setError(null);
    try {
      await fn(...args);
    } catch (err) {
      setError(err instanceof ApiFailure ? err.message : (err as Error).message || 'Something went wrong.');
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, setError };
}

export function ErrorText({ error }: { error: string | null }) {
  return error ? (
    <p className="error" role="alert">
      {error}
    </p>
  ) : null;
}

/** A form: Enter submits, the button is disabled while the call runs, the error shows under it. */
export function Form(props: {
  onSubmit: () => Promise<void>;
  submit: string;
  children?: ReactNode;
  label?: string;
  secondary?: boolean;
}) {
  const { busy, error, run } = useAction(props.onSubmit);
  return (
    <form
      className="form"
      aria-label={props.label ?? props.submit}
      onSubmit={(e) => {
        e.preventDefault();
        void run();
      }}
    >
      {props.children}
      <div className="actions">
        <button type="submit" disabled={busy} className={props.secondary ? 'secondary' : undefined}>
          {busy ? 'Working…' : props.submit}
        </button>
      </div>
      <ErrorText error={error} />
    </form>
  );
}

export function Field(props: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  type?: string;
  autoComplete?: string;
  required?: boolean;
  hint?: string;
  inputMode?: 'numeric' | 'text' | 'email';
  autoFocus?: boolean;
  name?: string;
  /** The id of a <datalist> of suggestions. */
  list?: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value}
        autoComplete={props.autoComplete ?? 'off'}
        required={props.required ?? true}
        inputMode={props.inputMode}
        list={props.list}
        // biome-ignore lint/a11y/noAutofocus: only the one field a step asks for (a code just sent) takes focus, by the caller's choice
        autoFocus={props.autoFocus}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.hint ? <small id={`${id}-hint`}>{props.hint}</small> : null}
    </div>
  );
}

/** A button whose action is async (revoke, remove, enable…), with its own busy state and error. */
export function ActionButton(props: {
  onClick: () => Promise<void>;
  children: ReactNode;
  danger?: boolean;
  label?: string;
}) {
  const { busy, error, run } = useAction(props.onClick);
  return (
    <span className="action">
      <button
        type="button"
        className={props.danger ? 'danger' : 'secondary'}
        disabled={busy}
        aria-label={props.label}
        onClick={() => void run()}
      >
        {props.children}
      </button>
      <ErrorText error={error} />
    </span>
  );
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      className="secondary"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(
          () => setDone(true),
          () => setDone(false),
        );
      }}
    >
      {done ? 'Copied' : label}
    </button>
  );
}

/** A page: its heading takes focus when the page opens, so keyboard and screen-reader users start there. */
export function Page({ title, children }: { title: string; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · svc console`;
    heading.current?.focus();
  }, [title]);
  return (
    <section className="page">
      <h1 tabIndex={-1} ref={heading}>
        {title}
      </h1>
      {children}
    </section>
  );
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card" aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

/** Loads data once (and again on `reload()`); shows the error in place of the content. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what `load` depends on; `tick` is the reload trigger
  useEffect(() => {
    let live = true;
    load().then(
      (d) => live && (setData(d), setError(null)),
      (err: Error) => live && setError(err.message),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  return { data, error, reload: () => setTick((t) => t + 1) };
}

export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');
