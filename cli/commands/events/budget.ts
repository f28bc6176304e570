import { parseDuration } from '../../../shared/duration.js';
import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { runtimeApi, withCompany } from './shared.js';

export interface BudgetOptions {
  company?: string;
  maxFirings?: string;
  maxToolCalls?: string;
  within?: string;
  off?: boolean;
}

interface ChainBudget {
  max_firings: number | null;
  max_tool_calls: number | null;
  within_ms: number;
}

/** `none` (no cap) or a whole number; the daemon checks the range and names the field. */
function capFlag(flag: string, value: string | undefined): number | null {
  if (value === undefined || value === 'none') return null;
  if (!/^\d{1,9}$/.test(value)) throw new UsageError(`${flag}: '${value}' is not a whole number (or none)`);
  return Number(value);
}

const describe = (b: ChainBudget | null) =>
  b === null
    ? 'no chain budget: chains are capped only by the depth guard'
    : `per chain within ${b.within_ms} ms: ${b.max_firings ?? 'any number of'} firings, ${b.max_tool_calls ?? 'any number of'} tool calls`;

/**
 * `svc events budget` shows the Company's chain budget; with `--max-firings`, `--max-tool-calls`
 * and `--within` it sets it, `--off` turns it off.
 */
export async function runBudget(opts: BudgetOptions, ctx: CliContext): Promise<void> {
  const setting = opts.maxFirings !== undefined || opts.maxToolCalls !== undefined || opts.within !== undefined;
  if (opts.off && setting) throw new UsageError('--off turns the budget off: give it alone');
  const api = await runtimeApi(ctx, opts.company);
  if (!setting && !opts.off) {
    const { budget } = await api.get<{ budget: ChainBudget | null }>('/api/events/budget');
    return ctx.json ? ctx.printJson({ budget }) : ctx.out(describe(budget));
  }
  let within_ms = 60_000;
  if (!opts.off) {
    if (opts.within === undefined) throw new UsageError('--within is needed to set a budget, e.g. --within 10m');
    const seconds = parseDuration(opts.within);
    if (seconds === null) throw new UsageError(`--within: '${opts.within}' is not a duration like 30s, 10m or 1h`);
    within_ms = seconds * 1000;
  }
  const body = {
    max_firings: opts.off ? null : capFlag('--max-firings', opts.maxFirings),
    max_tool_calls: opts.off ? null : capFlag('--max-tool-calls', opts.maxToolCalls),
    within_ms,
  };
  if (!opts.off && body.max_firings === null && body.max_tool_calls === null)
    throw new UsageError('give --max-firings or --max-tool-calls (or --off to turn the budget off)');
  const { budget } = await api.put<{ budget: ChainBudget | null }>('/api/events/budget', body);
  return ctx.json ? ctx.printJson({ budget }) : ctx.out(describe(budget));
}

export function budgetCommand(makeCtx: ContextFactory): Command {
  const cmd = withCompany(
    new Command('budget').description('show or set the chain budget: what one causal chain may fire in a window'),
  )
    .option('--max-firings <n>', 'firings one chain may cause within the window (none: no cap)')
    .option('--max-tool-calls <n>', 'tool calls one chain may cause within the window (none: no cap)')
    .option('--within <duration>', 'the sliding window, e.g. 10m (1s to 7d)')
    .option('--off', 'turn the budget off');
  return action(cmd, makeCtx, (ctx, flags) => runBudget(flags as BudgetOptions, ctx));
}
