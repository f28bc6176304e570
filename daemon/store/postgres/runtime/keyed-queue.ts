/**
 * Runs the tasks given under one key one after another, in call order (tasks under different keys
 * run side by side). Used where callers on one daemon expect call order, e.g. the messages of one
 * session: the row lock alone makes concurrent appends safe but lets them commit in any order.
 */
export function createKeyedQueue(): <T>(key: string, task: () => Promise<T>) => Promise<T> {
  const tails = new Map<string, Promise<unknown>>();
  return (key, task) => {
    const previous = tails.get(key) ?? Promise.resolve();
    const run = previous.then(task, task);
    const tail = run.catch(() => {});
    tails.set(key, tail);
    // Forget the key once its last task is done, so the map holds only keys with work in flight.
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}
