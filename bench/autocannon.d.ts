// The parts of autocannon's API the harness uses (the package ships no types).
declare module 'autocannon' {
  interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    duration?: number;
    connections?: number;
  }
  interface Result {
    requests: { average: number; total: number };
    latency: { average: number; p99: number };
    non2xx: number;
    errors: number;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
