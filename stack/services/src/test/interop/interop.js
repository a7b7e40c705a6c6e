#!/usr/bin/env node
// Drives Confluent's own JavaScript Schema Registry client (@confluentinc/schemaregistry)
// against a registry URL, for RegistryInteropIT:
//
//   node interop.js produce URL TOPIC SCHEMA_FILE RECORD_JSON_FILE OUT_BYTES_FILE
//     registers SCHEMA_FILE under TOPIC-value with the client, serializes the record with the
//     client's AvroSerializer (Confluent wire format) and writes the bytes; prints
//     {"registered_id": N, "subjects": [...], "latest_version": V}
//   node interop.js consume URL TOPIC IN_BYTES_FILE
//     decodes the bytes with the client's AvroDeserializer; prints the record as JSON
//
// Exit code 0 on success; on failure the error is printed to stderr and the exit code is 1.
'use strict';
const fs = require('fs');
const {
  SchemaRegistryClient, AvroSerializer, AvroDeserializer, SerdeType,
} = require('@confluentinc/schemaregistry');

function client(url) {
  return new SchemaRegistryClient({ baseURLs: [url], maxRetries: 1, cacheCapacity: 100 });
}

async function produce(url, topic, schemaFile, recordFile, outFile) {
  const c = client(url);
  const schema = fs.readFileSync(schemaFile, 'utf8');
  const record = JSON.parse(fs.readFileSync(recordFile, 'utf8'));
  const subject = `${topic}-value`;
  const id = await c.register(subject, { schemaType: 'AVRO', schema });
  const latest = await c.getLatestSchemaMetadata(subject);
  const ser = new AvroSerializer(c, SerdeType.VALUE, { autoRegisterSchemas: false, useLatestVersion: true });
  const bytes = await ser.serialize(topic, record);
  fs.writeFileSync(outFile, bytes);
  const subjects = await c.getAllSubjects();
  console.log(JSON.stringify({ registered_id: id, latest_id: latest.id, latest_version: latest.version, subjects }));
}

async function consume(url, topic, inFile) {
  const c = client(url);
  const de = new AvroDeserializer(c, SerdeType.VALUE, {});
  const value = await de.deserialize(topic, fs.readFileSync(inFile));
  console.log(JSON.stringify(value));
}

async function main(argv) {
  const [cmd, ...args] = argv;
  if (cmd === 'produce' && args.length === 5) return produce(...args);
  if (cmd === 'consume' && args.length === 3) return consume(...args);
  throw new Error('usage: interop.js produce URL TOPIC SCHEMA_FILE RECORD_JSON_FILE OUT_FILE | consume URL TOPIC IN_FILE');
}

main(process.argv.slice(2)).then(() => process.exit(0)).catch((e) => {
  console.error(`interop error: ${e && e.stack ? e.stack : e}`);
  process.exit(1);
});
