//! `#[derive(Interpolate)]` for tickfold: blend a struct between the previous tick and the
//! current one, field by field.
//!
//! Use it through the facade's `derive` feature, where `use tickfold::Interpolate;` brings both
//! the trait and this derive, the way serde's `derive` feature does. See [`Interpolate`](macro@Interpolate).

#![forbid(unsafe_code)]

use proc_macro::TokenStream;
use proc_macro2::{TokenStream as TokenStream2, TokenTree};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Field, Fields, Ident, Index, LitStr, Member, Path};

/// Derives [`Interpolate`] for a struct by blending each field between `self` (the previous
/// tick) and `next` (the current one) at the same `alpha`.
///
/// ```
/// use tickfold::Interpolate;
/// use tickfold::glam::{Quat, Vec3};
///
/// #[derive(Clone, Copy, Debug, PartialEq, Interpolate)]
/// struct Position(Vec3);
///
/// #[derive(Clone, Debug, PartialEq, Interpolate)]
/// struct Pose {
///     at: Position,
///     rotation: Quat,
///     #[interpolate(switch)]
///     frame: u32, // no in-between frames: the previous one below alpha 1/2, the current from 1/2
///     #[interpolate(newest)]
///     label: &'static str, // always the current tick's
/// }
///
/// let a = Position(Vec3::ZERO);
/// let b = Position(Vec3::new(4.0, 0.0, -2.0));
/// assert_eq!(a.interpolate(&b, 0.25), Position(Vec3::new(1.0, 0.0, -0.5)));
///
/// let p = Pose { at: a, rotation: Quat::IDENTITY, frame: 3, label: "walk" };
/// let n = Pose { at: b, rotation: Quat::from_rotation_y(1.0), frame: 4, label: "run" };
/// let mid = p.interpolate(&n, 0.5);
/// assert_eq!(mid.at, a.interpolate(&b, 0.5));
/// assert_eq!(mid.rotation, Quat::IDENTITY.interpolate(&Quat::from_rotation_y(1.0), 0.5));
/// assert_eq!((mid.frame, mid.label), (4, "run"));
/// assert_eq!(p.interpolate(&n, 1.0), n);
/// let start = p.interpolate(&n, 0.0); // the previous tick, but `newest` shows the current label
/// assert_eq!((start.at, start.rotation, start.frame, start.label), (a, p.rotation, 3, "run"));
/// ```
///
/// # What it generates
///
/// Newtypes, tuple structs, structs with named fields and unit structs. Each field is one of:
///
/// | field | its value at `alpha` | the field's type needs |
/// |---|---|---|
/// | plain (the default) | `Interpolate::interpolate(&self.f, &next.f, alpha)` | `Interpolate` |
/// | `#[interpolate(switch)]` | `self.f` for `alpha < 0.5` (and a NaN alpha), `next.f` from `alpha >= 0.5` | `Clone` |
/// | `#[interpolate(newest)]` | `next.f`, whatever `alpha` | `Clone` |
/// | `#[interpolate(skip)]` | `self.f`, whatever `alpha` | `Clone` |
///
/// `switch` is the rule of `tickfold_hecs::Discrete` (the nearest tick, the previous one on a
/// tie-break below ½), for values with no in-between: a frame index, an enum, a flag. Plain and
/// `switch` fields keep the trait's contract, so a struct made of them does too: exactly
/// `self` at `alpha <= 0` and for a NaN alpha, exactly `next` at `alpha >= 1`, and a field that
/// did not move never jitters. `newest` breaks the first end (it shows `next` at `alpha = 0`)
/// and `skip` the second (it shows `self` at `alpha = 1`), unless the field is the same in both
/// ticks: use them for data that does not change between the ticks, or where the renderer wants
/// exactly that tick's value.
///
/// Generic structs get a bound for each field whose type names a type parameter:
/// `T: Interpolate` for `struct Position<T>(T)`, `T: Clone` for a `switch`, `newest` or `skip`
/// field of type `T`. A field of a concrete type that does not implement `Interpolate` is an
/// error at that field.
///
/// The generated code names the trait as `::tickfold::Interpolate`. Without the facade (with
/// `tickfold-core` or `tickfold-hecs` alone), name the crate that exports the trait:
/// `#[interpolate(crate = "tickfold_core")]` on the struct.
///
/// # Errors at compile time
///
/// An enum has no in-between of two variants, so the derive refuses it (mark an enum field
/// `#[interpolate(switch)]`, or implement the trait by hand):
///
/// ```compile_fail
/// use tickfold::Interpolate;
///
/// #[derive(Interpolate)]
/// enum State {
///     Idle,
///     Moving(f32),
/// }
/// ```
///
/// So does a union:
///
/// ```compile_fail
/// use tickfold::Interpolate;
///
/// #[derive(Interpolate)]
/// union Bits {
///     f: f32,
///     u: u32,
/// }
/// ```
///
/// A field whose type does not implement `Interpolate` and is not marked is an error at that
/// field (E0277); the note names the types tickfold implements it for:
///
/// ```compile_fail,E0277
/// use tickfold::Interpolate;
///
/// #[derive(Clone, Interpolate)]
/// struct Unit {
///     at: [f32; 2],
///     name: String, // needs `#[interpolate(skip)]` or another choice
/// }
/// ```
///
/// An unknown choice, or two choices on one field, is an error at the attribute:
///
/// ```compile_fail
/// use tickfold::Interpolate;
///
/// #[derive(Clone, Interpolate)]
/// struct Unit {
///     at: [f32; 2],
///     #[interpolate(nearest)] // the choices are `switch`, `newest` and `skip`
///     frame: u32,
/// }
/// ```
///
/// ```compile_fail
/// use tickfold::Interpolate;
///
/// #[derive(Clone, Interpolate)]
/// struct Unit {
///     at: [f32; 2],
///     #[interpolate(switch, newest)]
///     frame: u32,
/// }
/// ```
///
/// [`Interpolate`]: https://docs.rs/tickfold/latest/tickfold/trait.Interpolate.html
#[proc_macro_derive(Interpolate, attributes(interpolate))]
pub fn derive_interpolate(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as DeriveInput);
    expand(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// What a field's value is at `alpha`.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Mode {
    /// `Interpolate::interpolate` of the two ticks' values.
    Blend,
    /// The previous value below `alpha = 0.5` (and for NaN), the current one from 0.5 on.
    Switch,
    /// Always the current value.
    Newest,
    /// Always the previous value.
    Skip,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Blend => "blend",
            Mode::Switch => "switch",
            Mode::Newest => "newest",
            Mode::Skip => "skip",
        }
    }
}

const CHOICES: &str = "expected `switch`, `newest` or `skip`";

fn expand(input: &DeriveInput) -> syn::Result<TokenStream2> {
    let krate = crate_path(input)?;
    let fields = match &input.data {
        Data::Struct(data) => &data.fields,
        Data::Enum(data) => {
            return Err(syn::Error::new(
                data.enum_token.span,
                "`#[derive(Interpolate)]` supports structs only: an enum has no value between \
                 two variants; mark an enum field `#[interpolate(switch)]` (the previous value \
                 below alpha 0.5, the current one from 0.5), or implement `Interpolate` by hand",
            ));
        }
        Data::Union(data) => {
            return Err(syn::Error::new(
                data.union_token.span,
                "`#[derive(Interpolate)]` supports structs only, not unions: implement \
                 `Interpolate` by hand",
            ));
        }
    };

    let params: Vec<&Ident> = input.generics.type_params().map(|p| &p.ident).collect();
    let mut generics = input.generics.clone();
    let (mut uses_next, mut uses_alpha) = (false, false);
    let mut values = Vec::new();
    for (i, field) in fields.iter().enumerate() {
        let mode = field_mode(field)?;
        let member = match &field.ident {
            Some(ident) => Member::Named(ident.clone()),
            None => Member::Unnamed(Index {
                index: u32::try_from(i).expect("fewer than 2^32 fields"),
                span: field.ty.span(),
            }),
        };
        let ty = &field.ty;
        // Errors about the field's type (a missing `Interpolate` or `Clone`) point at it.
        let span = ty.span();
        let value = match mode {
            Mode::Blend => {
                let f = quote_spanned!(span=> <#ty as #krate::Interpolate>::interpolate);
                quote!(#f(&self.#member, &next.#member, alpha))
            }
            Mode::Switch => {
                let f = quote_spanned!(span=> <#ty as ::core::clone::Clone>::clone);
                // `tickfold_hecs::Discrete`'s rule: `>=` sends 0.5 to `next`, NaN to `self`.
                quote!(if alpha >= 0.5 { #f(&next.#member) } else { #f(&self.#member) })
            }
            Mode::Newest => {
                let f = quote_spanned!(span=> <#ty as ::core::clone::Clone>::clone);
                quote!(#f(&next.#member))
            }
            Mode::Skip => {
                let f = quote_spanned!(span=> <#ty as ::core::clone::Clone>::clone);
                quote!(#f(&self.#member))
            }
        };
        uses_next |= mode != Mode::Skip;
        uses_alpha |= matches!(mode, Mode::Blend | Mode::Switch);
        if names_any(ty.to_token_stream(), &params) {
            let bound = match mode {
                Mode::Blend => quote_spanned!(span=> #ty: #krate::Interpolate),
                _ => quote_spanned!(span=> #ty: ::core::clone::Clone),
            };
            generics
                .make_where_clause()
                .predicates
                .push(syn::parse2(bound)?);
        }
        values.push(match &field.ident {
            Some(ident) => quote!(#ident: #value),
            None => value,
        });
    }

    let body = match fields {
        Fields::Named(_) => quote!(Self { #(#values,)* }),
        Fields::Unnamed(_) => quote!(Self(#(#values,)*)),
        Fields::Unit => quote!(Self),
    };
    let unused_next = (!uses_next).then(|| quote!(let _ = next;));
    let unused_alpha = (!uses_alpha).then(|| quote!(let _ = alpha;));
    let name = &input.ident;
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    Ok(quote! {
        #[automatically_derived]
        impl #impl_generics #krate::Interpolate for #name #ty_generics #where_clause {
            #[inline]
            fn interpolate(&self, next: &Self, alpha: f64) -> Self {
                #unused_next
                #unused_alpha
                #body
            }
        }
    })
}

/// The path of the crate that exports the trait: `::tickfold` unless the struct says
/// `#[interpolate(crate = "...")]`.
fn crate_path(input: &DeriveInput) -> syn::Result<Path> {
    let mut path = None;
    for attr in input
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("interpolate"))
    {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("crate") {
                if path.is_some() {
                    return Err(meta.error("`crate` is given twice"));
                }
                let lit: LitStr = meta.value()?.parse()?;
                path = Some(lit.parse::<Path>()?);
                Ok(())
            } else if ["switch", "newest", "skip"]
                .iter()
                .any(|m| meta.path.is_ident(m))
            {
                Err(meta.error("`switch`, `newest` and `skip` go on fields, not on the struct"))
            } else {
                Err(meta.error(
                    "unknown `interpolate` attribute: on the struct, only \
                                `crate = \"path\"` (the crate that exports the trait)",
                ))
            }
        })?;
    }
    Ok(path.unwrap_or_else(|| syn::parse_quote!(::tickfold)))
}

/// The field's `#[interpolate(...)]` choice, `Mode::Blend` without one.
fn field_mode(field: &Field) -> syn::Result<Mode> {
    let mut mode: Option<Mode> = None;
    for attr in field
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("interpolate"))
    {
        attr.parse_nested_meta(|meta| {
            let this = if meta.path.is_ident("switch") {
                Mode::Switch
            } else if meta.path.is_ident("newest") {
                Mode::Newest
            } else if meta.path.is_ident("skip") {
                Mode::Skip
            } else if meta.path.is_ident("crate") {
                return Err(meta.error("`crate = \"path\"` goes on the struct, not on a field"));
            } else {
                return Err(meta.error(format!("unknown `interpolate` choice: {CHOICES}")));
            };
            if let Some(before) = mode {
                return Err(meta.error(format!(
                    "a field takes one `interpolate` choice; this one is already `{}`",
                    before.name()
                )));
            }
            mode = Some(this);
            Ok(())
        })?;
    }
    Ok(mode.unwrap_or(Mode::Blend))
}

/// Whether `tokens` name one of the type parameters (so the field's type needs a bound).
fn names_any(tokens: TokenStream2, params: &[&Ident]) -> bool {
    tokens.into_iter().any(|tt| match tt {
        TokenTree::Ident(ident) => params.iter().any(|p| **p == ident),
        TokenTree::Group(group) => names_any(group.stream(), params),
        _ => false,
    })
}
