package io.iam.hbase.fs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Hadoop's local file system ({@code file://}), setting permissions through {@code java.nio}
 * instead of starting a {@code chmod} process. Without Hadoop's native library, {@link
 * RawLocalFileSystem#setPermission} forks one process per file it creates; HBase on the local file
 * system (standalone mode, a mini cluster) then spends most of a flush or compaction of small
 * files waiting for those processes (in a 200,000-row load into IAM's store engine, 96 of 99
 * native-method samples of the flush and compaction threads were in that fork). HDFS forks
 * nothing, so measurements on the local file system should not either.
 *
 * <p>Select it with {@code fs.file.impl=io.iam.hbase.fs.NioLocalFileSystem} before the first
 * {@code file://} file system of the JVM is created (Hadoop caches file systems by scheme). The
 * read, write, execute bits of owner, group and others are set; the sticky bit is not (HBase never
 * asks for it on files).
 */
public final class NioLocalFileSystem extends LocalFileSystem {

  public NioLocalFileSystem() {
    super(new Raw());
  }

  /** The raw file system under the checksums, with the permission change replaced. */
  static final class Raw extends RawLocalFileSystem {
    @Override
    public void setPermission(Path p, FsPermission permission) throws IOException {
      Files.setPosixFilePermissions(pathToFile(p).toPath(), posix(permission));
    }
  }

  /** The POSIX permission bits of {@code permission} (sticky bit aside). */
  static Set<PosixFilePermission> posix(FsPermission permission) {
    Set<PosixFilePermission> out = EnumSet.noneOf(PosixFilePermission.class);
    add(out, permission.getUserAction(), PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
        PosixFilePermission.OWNER_EXECUTE);
    add(out, permission.getGroupAction(), PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
        PosixFilePermission.GROUP_EXECUTE);
    add(out, permission.getOtherAction(), PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE,
        PosixFilePermission.OTHERS_EXECUTE);
    return out;
  }

  private static void add(Set<PosixFilePermission> out, FsAction action, PosixFilePermission read,
      PosixFilePermission write, PosixFilePermission execute) {
    if (action.implies(FsAction.READ)) {
      out.add(read);
    }
    if (action.implies(FsAction.WRITE)) {
      out.add(write);
    }
    if (action.implies(FsAction.EXECUTE)) {
      out.add(execute);
    }
  }
}
