package io.fleetscope.agent.publish;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A spool {@link Spool.Opener} over the real file system that behaves like a small disk: a write
 * that would make the directory's files larger than {@code capacity} bytes fails with the kernel's
 * "No space left on device" after writing what still fits (as a real ENOSPC does). Deleting files
 * frees space. Also counts {@code force} calls. (A real small file system needs root; this is the
 * simulation the tests use instead.)
 */
final class SmallDisk implements Spool.Opener {
  final Path dir;
  volatile long capacity;
  final AtomicInteger forces = new AtomicInteger();
  final AtomicInteger refusedWrites = new AtomicInteger();

  SmallDisk(Path dir, long capacity) {
    this.dir = dir;
    this.capacity = capacity;
  }

  long used() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      long n = 0;
      for (Path p : (Iterable<Path>) files::iterator) n += Files.size(p);
      return n;
    }
  }

  @Override
  public FileChannel open(Path file, OpenOption... options) throws IOException {
    return new Channel(FileChannel.open(file, options));
  }

  private final class Channel extends FileChannel {
    private final FileChannel d;

    Channel(FileChannel d) {
      this.d = d;
    }

    private ByteBuffer fitting(ByteBuffer src, long at) throws IOException {
      long grow = Math.max(0, at + src.remaining() - d.size());
      long free = capacity - used();
      if (grow <= free) return src;
      refusedWrites.incrementAndGet();
      long fits = Math.max(0, src.remaining() - (grow - Math.max(0, free)));
      if (fits > 0) {
        ByteBuffer part = src.duplicate();
        part.limit(part.position() + (int) fits);
        d.write(part, at);   // what still fits is written, then the disk is full
      }
      throw new IOException("No space left on device");
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
      return d.write(fitting(src, position), position);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
      return d.write(fitting(src, d.position()));
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
      long n = 0;
      for (int i = offset; i < offset + length; i++) n += write(srcs[i]);
      return n;
    }

    @Override
    public void force(boolean metaData) throws IOException {
      forces.incrementAndGet();
      d.force(metaData);
    }

    @Override public int read(ByteBuffer dst) throws IOException { return d.read(dst); }
    @Override public long read(ByteBuffer[] dsts, int offset, int length) throws IOException { return d.read(dsts, offset, length); }
    @Override public int read(ByteBuffer dst, long position) throws IOException { return d.read(dst, position); }
    @Override public long position() throws IOException { return d.position(); }
    @Override public FileChannel position(long p) throws IOException { d.position(p); return this; }
    @Override public long size() throws IOException { return d.size(); }
    @Override public FileChannel truncate(long size) throws IOException { d.truncate(size); return this; }
    @Override public long transferTo(long position, long count, WritableByteChannel target) throws IOException { return d.transferTo(position, count, target); }
    @Override public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException { throw new IOException("not used by the spool"); }
    @Override public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException { throw new IOException("not used by the spool"); }
    @Override public FileLock lock(long position, long size, boolean shared) throws IOException { return d.lock(position, size, shared); }
    @Override public FileLock tryLock(long position, long size, boolean shared) throws IOException { return d.tryLock(position, size, shared); }
    @Override protected void implCloseChannel() throws IOException { d.close(); }
  }
}
