-- Existing images get the ETag the API computes at upload: sha256 of the stored bytes, in hex
-- (api/src/services/images.ts imageEtag). Data only; 0003 added the column, 0005 requires it.
UPDATE "images" SET "etag" = encode(sha256("data"), 'hex') WHERE "etag" IS NULL;
