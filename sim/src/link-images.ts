// A payment link's images: uploaded (multipart `main` + `image`), listed, read, removed, one of them the main image.
import type { Handler, SimContext } from "./context";
import { type Resource, find, getIn, insert, listIn } from "./engine";
import { badRequest, notFound } from "./http";
import { collection } from "./records";

const linkId = (ctx: SimContext) => ctx.params.paymentLinkId ?? ctx.params.id ?? "";

const images: Resource = {
  dto: "PaymentLinkFileGetResponse",
  key: (ctx) => `paymentLinkImages:${linkId(ctx)}`,
  param: "imageId",
  missing: "Imagem não encontrada.",
  parent: (ctx) => {
    if (!ctx.account.paymentLinks.has(linkId(ctx))) throw notFound("Link de pagamentos não encontrado.");
  },
};

function setMain(ctx: SimContext, id: unknown): void {
  for (const img of collection(ctx.account, images.key(ctx)).values()) img.main = img.id === id;
}

export const linkImageHandlers = {
  add: ((ctx) => {
    const file = ctx.form?.get("image");
    if (!file || typeof file === "string") throw badRequest("invalid_image", "Envie a imagem no campo image.");
    const main = ctx.form?.get("main") === "true";
    const image = insert(ctx, images, {}, (_c, img) => {
      img.main = main;
      img.image = {
        originalName: file.name,
        size: file.size,
        extension: file.name.split(".").pop() ?? "",
        previewUrl: `${ctx.origin}/imagens/${String(img.id)}`,
        downloadUrl: `${ctx.origin}/imagens/${String(img.id)}/download`,
      };
    });
    if (main || collection(ctx.account, images.key(ctx)).size === 1) setMain(ctx, image.id);
    return image;
  }) as Handler,
  list: listIn(images),
  get: getIn(images),
  remove: ((ctx) => {
    const image = find(ctx, images);
    collection(ctx.account, images.key(ctx)).delete(String(image.id));
    return { deleted: true, id: image.id };
  }) as Handler,
  setAsMain: ((ctx) => {
    const image = find(ctx, images);
    setMain(ctx, image.id);
    return image;
  }) as Handler,
};
