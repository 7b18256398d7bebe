// Package clustertest runs Prima as a cluster under a fault: three serve
// nodes behind HAProxy, a worker, PostgreSQL, Redis and S3, with one node
// killed and brought back during a mixed load. Its test carries the build
// tag "cluster" (minutes long, needs haproxy): deploy/cluster-test, or
// make cluster-test, runs it; make test does not.
package clustertest
