package io.iam.core.fs;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The real file system, through {@link FileChannel}. */
public final class LocalFs implements Fs {

  /** The shared instance. */
  public static final LocalFs INSTANCE = new LocalFs();

  private LocalFs() {}

  @Override
  public FsFile open(Path path, Mode mode) throws IOException {
    FileChannel ch = switch (mode) {
      case READ -> FileChannel.open(path, StandardOpenOption.READ);
      case WRITE -> FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.CREATE);
      case CREATE_NEW -> FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW);
    };
    return new ChannelFile(path, ch);
  }

  @Override
  public void rename(Path from, Path to) throws IOException {
    Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  @Override
  public void delete(Path path) throws IOException {
    Files.deleteIfExists(path);
  }

  @Override
  public boolean exists(Path path) {
    return Files.exists(path);
  }

  @Override
  public List<Path> list(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      List<Path> out = new ArrayList<>(s.toList());
      out.sort(null);
      return out;
    }
  }

  @Override
  public void createDirectories(Path dir) throws IOException {
    Files.createDirectories(dir);
  }

  @Override
  public void syncDirectory(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (NoSuchFileException e) {
      throw e;
    } catch (IOException e) {
      // Some file systems refuse to open directories for sync; nothing more can be done there.
    }
  }

  @Override
  public FsLock lock(Path lockFile) throws IOException {
    FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = ch.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    }
    if (lock == null) {
      ch.close();
      throw new IOException("store is in use: " + lockFile + " is locked by another process or an open store");
    }
    FileLock held = lock;
    return () -> {
      try {
        held.release();
      } finally {
        ch.close();
      }
    };
  }

  @Override
  public long usableSpace(Path path) throws IOException {
    return Files.getFileStore(path).getUsableSpace();
  }

  private static final class ChannelFile implements FsFile {
    private final Path path;
    private final FileChannel ch;

    ChannelFile(Path path, FileChannel ch) {
      this.path = path;
      this.ch = ch;
    }

    @Override
    public void readFully(long position, ByteBuffer dst) throws IOException {
      long pos = position;
      while (dst.hasRemaining()) {
        int n = ch.read(dst, pos);
        if (n < 0) {
          throw new EOFException(path + ": read past end at offset " + pos);
        }
        pos += n;
      }
    }

    @Override
    public void write(long position, ByteBuffer src) throws IOException {
      long pos = position;
      while (src.hasRemaining()) {
        pos += ch.write(src, pos);
      }
    }

    @Override
    public long size() throws IOException {
      return ch.size();
    }

    /** fdatasync: the data and the metadata needed to read it back (length, allocation), as LevelDB does. */
    @Override
    public void sync() throws IOException {
      ch.force(false);
    }

    @Override
    public void truncate(long size) throws IOException {
      ch.truncate(size);
    }

    @Override
    public void close() throws IOException {
      ch.close();
    }

    @Override
    public String toString() {
      return path.toString();
    }
  }
}
