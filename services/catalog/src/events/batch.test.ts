import { expect, test } from 'bun:test'
import { batched } from './batch'

test('calls of one turn share one run, in order, each given its own output', async () => {
  const runs: number[][] = []
  const double = batched(async (inputs: number[]) => (runs.push(inputs), inputs.map((n) => n * 2)))
  expect(await Promise.all([double(1), double(2), double(2), double(3)])).toEqual([2, 4, 4, 6])
  expect(await double(5)).toBe(10)
  expect(runs).toEqual([[1, 2, 2, 3], [5]])
})

test('a batch past its size is split; a failed run fails its calls only', async () => {
  const runs: number[][] = []
  const checked = batched(async (inputs: number[]) => {
    runs.push(inputs)
    if (inputs.includes(3)) throw new Error('database down')
    return inputs
  }, 2)
  const results = await Promise.allSettled([checked(1), checked(2), checked(3), checked(4), checked(5)])
  expect(runs).toEqual([[1, 2], [3, 4], [5]])
  expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected', 'fulfilled'])
  expect((results[2] as PromiseRejectedResult).reason.message).toBe('database down')
})
