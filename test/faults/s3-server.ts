// s3rver in a process of its own, so a fault test can stop it the way storage fails (SIGKILL)
// and start it again on the same port and directory: bun test/faults/s3-server.ts <port> <dir>
import S3rver from 's3rver'

const [port, directory] = process.argv.slice(2)
const server = new S3rver({ address: '127.0.0.1', port: Number(port), silent: true, directory })
await server.run()
console.log('ready')
process.on('SIGTERM', () => void server.close().finally(() => process.exit(0)))
