package io.iam.hbase.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local file system without a chmod process: the same permissions, set by java.nio. */
class NioLocalFileSystemTest {

  @Test
  void permissionsOfCreatedFilesAreThoseAskedFor(@TempDir java.nio.file.Path dir) throws Exception {
    NioLocalFileSystem fs = new NioLocalFileSystem();
    fs.initialize(FileSystem.getDefaultUri(new Configuration()), new Configuration());
    for (String perm : new String[] {"rw-r--r--", "rwx------", "r--r-----", "rwxr-x--x"}) {
      Path p = new Path(dir.resolve("f-" + perm).toUri());
      try (FSDataOutputStream out = fs.create(p, FsPermission.valueOf("-" + perm), true, 4096, (short) 1, 1 << 20, null)) {
        out.write(42);
      }
      assertEquals(perm, PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("f-" + perm))));
      assertEquals(1, fs.getFileStatus(p).getLen());
    }
  }

  @Test
  void hadoopPicksItForFileUrisWhenConfigured(@TempDir java.nio.file.Path dir) throws Exception {
    Configuration conf = new Configuration();
    conf.set("fs.file.impl", NioLocalFileSystem.class.getName());
    conf.setBoolean("fs.file.impl.disable.cache", true);
    FileSystem fs = new Path(dir.toUri()).getFileSystem(conf);
    assertTrue(fs instanceof NioLocalFileSystem, fs.getClass().getName());
  }
}
