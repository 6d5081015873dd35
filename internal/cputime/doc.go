// Package cputime reads the process's CPU time for benchmarks, which
// report it per operation next to wall time: on a shared machine wall time
// includes waiting for a core, CPU time mostly does not (it does include
// the garbage collector's other threads, a real cost).
package cputime
