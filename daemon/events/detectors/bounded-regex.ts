import vm from 'node:vm';

/**
 * Runs vetted regular expressions with two bounds, because the static screen (regex-safety.ts) is a
 * heuristic and polynomial blow-ups (`.*a.*a.*a`) pass it:
 * - only the first `maxInput` characters of a field are examined, so cost cannot grow with a huge body;
 * - each test runs in a vm context with a timeout: V8 interrupts the regex engine mid-backtrack,
 *   so a pathological match costs at most `timeoutMs` and counts as "no match".
 * The timeout costs a watchdog per call (a fraction of a millisecond): acceptable for detectors,
 * which run per matching event, not per byte.
 */
export interface BoundedRegex {
  test(regex: RegExp, text: string): 'match' | 'no_match' | 'timeout';
}

export function createBoundedRegex(options: { timeoutMs?: number; maxInput?: number } = {}): BoundedRegex {
  const timeoutMs = options.timeoutMs ?? 25;
  const maxInput = options.maxInput ?? 4096;
  const sandbox = vm.createContext({ re: /$^/, s: '' });
  const script = new vm.Script('re.lastIndex = 0, re.test(s)');
  return {
    test(regex, text) {
      sandbox.re = regex;
      sandbox.s = text.length > maxInput ? text.slice(0, maxInput) : text;
      try {
        return script.runInContext(sandbox, { timeout: timeoutMs }) ? 'match' : 'no_match';
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return 'timeout';
        throw err;
      } finally {
        sandbox.s = '';
      }
    },
  };
}
