/**
 * Calls made in the same turn of the event loop, answered together by one call of `run` (one
 * statement for many cache misses): `run` gets the inputs in order and gives an output for each,
 * at the same position. A failure of `run` fails every call of its batch.
 *
 * Why: on this kind of machine a cache miss cost the catalog several times its own work in the
 * database round trip around it (the driver's send and parse, the socket's wake-ups), and those
 * are paid per statement, not per row.
 */
export function batched<In, Out>(run: (inputs: In[]) => Promise<Out[]>, most = 64): (input: In) => Promise<Out> {
  let waiting: { input: In; resolve: (output: Out) => void; reject: (error: unknown) => void }[] = []
  const flush = () => {
    const calls = waiting
    waiting = []
    for (let at = 0; at < calls.length; at += most) {
      const part = calls.slice(at, at + most)
      run(part.map((call) => call.input)).then(
        (outputs) => part.forEach((call, i) => call.resolve(outputs[i])),
        (error) => part.forEach((call) => call.reject(error)),
      )
    }
  }
  return (input) =>
    new Promise<Out>((resolve, reject) => {
      // after the requests this turn has read: their misses join the same batch
      if (waiting.length === 0) setImmediate(flush)
      waiting.push({ input, resolve, reject })
    })
}
