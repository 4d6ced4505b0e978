import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { notFound, packageRoot, requireUser, type ServiceApp } from '@sleepweave/service-kit';
import { z } from 'zod';

/** Where the library's own illustrations live (original SVGs, shipped with the service). */
export const IMAGES_DIR = join(packageRoot(import.meta.url), 'images');
/** The public path of an image file: what an article's imagePath names. */
export const IMAGES_PATH = '/api/library/images';
export const imagePath = (file: string) => `${IMAGES_PATH}/${file}`;

const FILE_NAME = /^[a-z0-9][a-z0-9-]*\.svg$/;

/** The images by file name, read once at start: only these files can ever be served. */
export type ImageLibrary = ReadonlyMap<string, Buffer>;

export async function loadImages(dir: string = IMAGES_DIR): Promise<ImageLibrary> {
  const files = (await readdir(dir)).filter((name) => FILE_NAME.test(name));
  return new Map(await Promise.all(files.map(async (name) => [name, await readFile(join(dir, name))] as const)));
}

export async function imageRoutes(app: ServiceApp, images: ImageLibrary): Promise<void> {
  app.get(`${IMAGES_PATH}/:file`, { schema: { params: z.object({ file: z.string() }) } }, async (request, reply) => {
    requireUser(request);
    const image = images.get(request.params.file);
    if (!image) throw notFound('No such image');
    return (
      reply
        .type('image/svg+xml')
        .header('cache-control', 'private, max-age=86400')
        .header('x-content-type-options', 'nosniff')
        // Opened on its own, an SVG is a document: it may run nothing and load nothing.
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .send(image)
    );
  });
}
