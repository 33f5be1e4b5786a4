// expect: ResourceError/timers
// category: resource
// timeout: 5s
// source: original (each timer callback schedules two more: the pending timers double every millisecond until the timers limit ends the execution)
const fork = () => {
  try { setTimeout(fork, 0); setTimeout(fork, 0); } catch (e) { /* the limit is not catchable */ }
};
fork();
await new Promise(() => {});
