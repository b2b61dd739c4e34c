package io.iam.hbase.engine;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The registry behind {@link IamStoresMXBean}: each store run by IAM's store engine registers a
 * view of its tree when it opens and removes it when it closes. The MBean is registered once per
 * JVM, on the platform MBean server, when the first store registers. Thread-safe.
 */
public final class IamStores implements IamStoresMXBean {

  /** The MBean's object name. */
  public static final String NAME = "io.iam:type=IamStoreEngine,name=Stores";

  private static final Logger LOG = LoggerFactory.getLogger(IamStores.class);
  private static final IamStores INSTANCE = new IamStores();

  private final Map<Object, Supplier<StoreTree>> stores = new ConcurrentHashMap<>();
  private volatile boolean registered;

  private IamStores() {}

  /** The registry of this JVM. */
  public static IamStores get() {
    return INSTANCE;
  }

  /** Adds {@code owner}'s view (an identity key: two regions may open the same store name in one JVM). */
  public void add(Object owner, Supplier<StoreTree> view) {
    stores.put(owner, view);
    registerOnce();
  }

  /** Removes {@code owner}'s view; nothing if it has none. */
  public void remove(Object owner) {
    stores.remove(owner);
  }

  @Override
  public List<StoreTree> getStores() {
    List<StoreTree> out = new ArrayList<>();
    for (Supplier<StoreTree> v : stores.values()) {
      out.add(v.get());
    }
    out.sort(Comparator.comparing(StoreTree::getStore));
    return out;
  }

  @Override
  public long getFlushWaitMillis() {
    return getStores().stream().mapToLong(StoreTree::getFlushWaitMillis).sum();
  }

  private void registerOnce() {
    if (registered) {
      return;
    }
    synchronized (this) {
      if (registered) {
        return;
      }
      registered = true;
      try {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = new ObjectName(NAME);
        if (!server.isRegistered(name)) {
          server.registerMBean(this, name);
        }
      } catch (JMException | RuntimeException e) {
        LOG.warn("cannot register {} over JMX; the stores' trees are not exported", NAME, e);
      }
    }
  }
}
