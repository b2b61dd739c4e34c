package io.iam.bench.asterix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The sockets the embedded AsterixDB listens on are bound to the loopback address: nobody who can
 * reach the machine can send SQL++ to a benchmark's instance. The listeners are this JVM's LISTEN
 * sockets in {@code /proc/net/tcp} and {@code tcp6} (Linux only).
 *
 * <p>One kind is left on the wildcard address, and named by the test: the reply listener of each
 * Hyracks client connection (AsterixDB 0.9.8's {@code HyracksConnection} binds {@code new
 * InetSocketAddress(0)}, with no setting), whose thread is "IPC Network Listener Thread [/[::]:port]".
 * It takes Hyracks IPC messages for a client, not SQL++.
 */
class EmbeddedListensOnLoopbackTest {

  @Test
  void everyListenerOfTheEmbeddedInstanceIsOnLoopback() throws Exception {
    assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs Linux's /proc");
    Set<String> before = new HashSet<>(listeners());
    EmbeddedAsterix asterix = EmbeddedAsterix.acquire(4L << 20, 8L << 20);
    try {
      List<String> opened = new ArrayList<>(listeners());
      opened.removeAll(before);
      assertTrue(opened.size() >= 5, "the CC and NC listen (API, NC API, IPC, data, result): " + opened);
      Set<Integer> clientIpc = hyracksClientIpcPorts();
      List<String> open = opened.stream().filter(a -> !isLoopback(a))
          .filter(a -> !clientIpc.contains(Integer.parseInt(a.substring(a.lastIndexOf(':') + 1)))).toList();
      assertEquals(List.of(), open, "listeners not on loopback, of " + opened + "; cc.conf:\n"
          + Files.readString(asterix.home().resolve("cc.conf")));
      assertTrue(clientIpc.size() <= 3, "Hyracks client connections: " + clientIpc);
    } finally {
      EmbeddedAsterix.release();
    }
  }

  /** Ports of the Hyracks IPC listeners on the wildcard address, from their threads' names. */
  private static Set<Integer> hyracksClientIpcPorts() {
    Set<Integer> ports = new HashSet<>();
    java.util.regex.Pattern name = java.util.regex.Pattern.compile(
        "IPC Network Listener Thread \\[/(0\\.0\\.0\\.0|\\[0:0:0:0:0:0:0:0\\]):(\\d+)\\]");
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      java.util.regex.Matcher m = name.matcher(t.getName());
      if (m.matches()) {
        ports.add(Integer.parseInt(m.group(2)));
      }
    }
    return ports;
  }

  private static boolean isLoopback(String address) {
    return address.startsWith("127.") || address.equals("::1") || address.startsWith("::ffff:127.");
  }

  /** The addresses (with ports) this JVM listens on, as "address:port". */
  static List<String> listeners() throws IOException {
    Set<String> inodes = new HashSet<>();
    try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
      for (Path fd : fds) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")) {
            inodes.add(target.substring(8, target.length() - 1));
          }
        } catch (IOException e) {
          // closed meanwhile
        }
      }
    }
    List<String> out = new ArrayList<>();
    for (String table : List.of("/proc/self/net/tcp", "/proc/self/net/tcp6")) {
      List<String> lines = Files.readAllLines(Path.of(table));
      for (String line : lines.subList(1, lines.size())) {
        String[] f = line.trim().split("\\s+");
        if (f[3].equals("0A") && inodes.contains(f[9])) { // LISTEN, one of ours
          String[] local = f[1].split(":");
          out.add(address(local[0]) + ":" + Integer.parseInt(local[1], 16));
        }
      }
    }
    return out;
  }

  /** /proc's hex address (little-endian 32-bit words) in dotted or IPv6 text form. */
  private static String address(String hex) {
    byte[] b = new byte[hex.length() / 2];
    for (int w = 0; w < b.length / 4; w++) {
      for (int i = 0; i < 4; i++) {
        b[w * 4 + i] = (byte) Integer.parseInt(hex.substring(w * 8 + (3 - i) * 2, w * 8 + (3 - i) * 2 + 2), 16);
      }
    }
    try {
      String text = java.net.InetAddress.getByAddress(b).getHostAddress();
      if (b.length == 16 && java.net.InetAddress.getByAddress(b) instanceof java.net.Inet6Address) {
        boolean mapped = true;
        for (int i = 0; i < 10; i++) {
          mapped &= b[i] == 0;
        }
        if (mapped && b[10] == (byte) 0xff && b[11] == (byte) 0xff) {
          return "::ffff:" + (b[12] & 0xff) + "." + (b[13] & 0xff) + "." + (b[14] & 0xff) + "." + (b[15] & 0xff);
        }
        return text.equals("0:0:0:0:0:0:0:1") ? "::1" : text.equals("0:0:0:0:0:0:0:0") ? "::" : text;
      }
      return text;
    } catch (java.net.UnknownHostException e) {
      throw new IllegalStateException(hex, e);
    }
  }
}
