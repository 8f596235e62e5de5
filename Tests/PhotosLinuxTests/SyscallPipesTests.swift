import Foundation
import Glibc
import PhotosTestSupport
import Testing

@testable import PhotosLinux

/// The pipe and process-descriptor calls a thread polls to read a child's output off the shared pool.
@Suite struct SyscallPipesTests {
    /// Both ends close on exec (another program started meanwhile must not keep the pipe open); only
    /// the reading end is non-blocking, the child's writing end blocks as a standard output does.
    @Test func aPipesEndsCloseOnExecAndOnlyItsReadingEndIsNonBlocking() throws {
        let pipe = try Syscall.pipe()
        defer {
            Syscall.close(pipe.reading)
            Syscall.close(pipe.writing)
        }
        #expect(fcntl(pipe.reading, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(pipe.writing, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(pipe.reading, F_GETFL) & O_NONBLOCK != 0)
        #expect(fcntl(pipe.writing, F_GETFL) & O_NONBLOCK == 0)
    }

    /// Empty: nil at once, no wait. Written: the bytes, and FIONREAD counts them first. Every writer
    /// gone: 0, the end.
    @Test func readingSaysEmptyThenReturnsTheBytesThenTheEnd() throws {
        let pipe = try Syscall.pipe()
        defer { Syscall.close(pipe.reading) }
        var buffer = [UInt8](repeating: 0, count: 64)
        #expect(try buffer.withUnsafeMutableBytes { try Syscall.readSome(pipe.reading, into: $0) } == nil)
        #expect(try Syscall.readableBytes(pipe.reading) == 0)

        let bytes = Array("hello, hook".utf8)
        #expect(write(pipe.writing, bytes, bytes.count) == bytes.count)
        #expect(try Syscall.readableBytes(pipe.reading) == bytes.count)
        let count = try buffer.withUnsafeMutableBytes { try Syscall.readSome(pipe.reading, into: $0) }
        #expect(count == bytes.count)
        #expect(Array(buffer.prefix(bytes.count)) == bytes)
        #expect(try Syscall.readableBytes(pipe.reading) == 0)

        Syscall.close(pipe.writing)
        #expect(try buffer.withUnsafeMutableBytes { try Syscall.readSome(pipe.reading, into: $0) } == 0)
    }

    /// A read never takes more than the buffer holds; the rest stays for the next.
    @Test func aReadTakesAtMostItsBuffer() throws {
        let pipe = try Syscall.pipe()
        defer {
            Syscall.close(pipe.reading)
            Syscall.close(pipe.writing)
        }
        let bytes = [UInt8](repeating: 7, count: 1000)
        #expect(write(pipe.writing, bytes, bytes.count) == bytes.count)
        var buffer = [UInt8](repeating: 0, count: 300)
        #expect(try buffer.withUnsafeMutableBytes { try Syscall.readSome(pipe.reading, into: $0) } == 300)
        #expect(try Syscall.readableBytes(pipe.reading) == 700)
    }

    /// A child's descriptor is not readable while it runs, and is once it has exited (before anyone
    /// reaps it).
    @Test func aProcessDescriptorBecomesReadableWhenTheChildExits() async throws {
        let child = TestProcess()
        child.executableURL = URL(fileURLWithPath: "/bin/sleep")  // Kept: a child that still runs.
        child.arguments = ["30"]
        try child.run()
        defer { kill(child.processIdentifier, SIGKILL) }
        let descriptor = FileDescriptor(try Syscall.processDescriptor(child.processIdentifier))
        #expect(fcntl(descriptor.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        var polled = [pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)]
        #expect(try Syscall.poll(&polled, timeout: 0) == 0)

        kill(child.processIdentifier, SIGKILL)
        // Off the pool: the poll blocks until the kernel has ended the child.
        let (ready, events) = try await offPool { () throws -> (Int, Int16) in
            var polled = [pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)]
            let ready = try Syscall.poll(&polled, timeout: 30_000)
            return (ready, polled[0].revents)
        }
        #expect(ready == 1)
        #expect(events & Int16(POLLIN) != 0)
        child.waitUntilExit()
    }

    @Test func noProcessHasNoDescriptor() {
        #expect(throws: SystemCallError(call: "pidfd_open", errno: ESRCH)) {
            try Syscall.processDescriptor(Int32.max)
        }
    }
}
