package io.iam.bench.jmh;

import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The run settings the whole suite shares, declared once: one fork, per-thread state, 3 × 1 s of
 * warm-up and 5 × 1 s of measurement (JMH's annotations are inherited). Each benchmark declares its
 * own mode and unit, and may override any of these on its class (a class annotation wins over an
 * inherited one). The committed baseline's command shortens them from the command line.
 */
@State(Scope.Thread)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public abstract class SuiteBenchmark {}
