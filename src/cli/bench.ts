/** `npm run bench`: reserved for the batch benchmark of issue #5 (see docs/benchmarks.md once it lands). */
process.stderr.write('npm run bench: the benchmark arrives with batch payouts; nothing is measured yet.\n');
process.exit(1);
