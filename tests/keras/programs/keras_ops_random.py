"""keras.ops (numpy-style ops, nn ops, linalg, control flow: cond, while_loop, fori_loop, scan,
vectorized_map) and keras.random with seeds and SeedGenerator, inside and outside a
tf.function; a character-level LSTM trained with `import keras`, then sampled with
tf.random.categorical under a fixed seed."""
import keras
import numpy as np
import tensorflow as tf
from keras import ops

keras.utils.set_random_seed(53)
x = ops.reshape(ops.arange(12, dtype='float32'), (3, 4))
print('einsum', ops.einsum('ij,kj->ik', x, x).numpy().tolist())
print('stats', ops.mean(x, axis=0).numpy().tolist(), ops.std(x).numpy().item(),
      ops.argmax(x, axis=1).numpy().tolist(), ops.cumsum(x, axis=1)[1].numpy().tolist())
print('where/clip', ops.where(x > 5, x, -x)[0].numpy().tolist(),
      ops.clip(x, 2.0, 7.0)[1].numpy().tolist())
print('softmax', np.round(ops.softmax(x[0]).numpy(), 6).tolist(),
      np.round(ops.log_softmax(x[0]).numpy(), 6).tolist())
print('nn', np.round(ops.gelu(x[0] - 2).numpy(), 6).tolist(),
      np.round(ops.silu(x[0] - 2).numpy(), 6).tolist(),
      ops.one_hot(ops.array([0, 2]), 3).numpy().tolist())
print('linalg', np.round(ops.linalg.inv(ops.eye(3) * 2.0 + 1.0).numpy(), 6).tolist(),
      round(float(ops.linalg.det(ops.eye(3) * 2.0 + 1.0)), 4))
print('top_k', ops.top_k(x[2], k=2)[0].numpy().tolist(), ops.sort(-x[0]).numpy().tolist())
print('cond', float(ops.cond(ops.sum(x) > 10, lambda: ops.sum(x), lambda: ops.min(x))))
print('while', ops.while_loop(lambda i, s: i < 5, lambda i, s: (i + 1, s + i), (0, 0)))
print('fori', float(ops.fori_loop(0, 4, lambda i, acc: acc * 2.0, 1.0)))
carry, ys = ops.scan(lambda c, v: (c + v, c * v), 0.0, ops.arange(5, dtype='float32'))
print('scan', float(carry), ys.numpy().tolist())
print('vmap', ops.vectorized_map(lambda row: ops.sum(row ** 2), x).numpy().tolist())
print('segment', ops.segment_sum(ops.array([1.0, 2.0, 3.0, 4.0]), ops.array([0, 0, 1, 2]),
                                 num_segments=3).numpy().tolist())

print('normal', np.round(keras.random.normal((2, 3), seed=1).numpy(), 5).tolist())
print('uniform', np.round(keras.random.uniform((4,), minval=2, maxval=3, seed=2).numpy(), 5).tolist())
gen = keras.random.SeedGenerator(7)
print('generator', np.round(keras.random.normal((3,), seed=gen).numpy(), 5).tolist(),
      np.round(keras.random.normal((3,), seed=gen).numpy(), 5).tolist())
print('categorical', keras.random.categorical(ops.log(ops.array([[0.1, 0.6, 0.3]])), 6,
                                              seed=3).numpy().tolist())
print('shuffle', keras.random.shuffle(ops.arange(6), seed=4).numpy().tolist())
print('dropout', keras.random.dropout(ops.ones((8,)), 0.5, seed=5).numpy().tolist())


@tf.function
def traced_draw():
    return keras.random.uniform((3,), seed=gen), keras.random.randint((3,), 0, 10, seed=9)


a, b = traced_draw()
print('traced', np.round(a.numpy(), 5).tolist(), b.numpy().tolist())

text = 'hello world, hello keras. ' * 6
chars = sorted(set(text))
index = {c: i for i, c in enumerate(chars)}
encoded = np.array([index[c] for c in text])
window = 8
starts = np.arange(0, len(encoded) - window - 1, 3)
xs = np.stack([encoded[s:s + window] for s in starts])
ys = encoded[starts + window]
model = keras.Sequential([keras.Input((window,)), keras.layers.Embedding(len(chars), 8),
                          keras.layers.LSTM(16), keras.layers.Dense(len(chars))])
model.compile(optimizer=keras.optimizers.Adam(0.02),
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
h = model.fit(xs, ys, epochs=3, batch_size=16, verbose=0)
print('char loss', np.round(h.history['loss'], 5).tolist())
seed_text = list(encoded[:window])
tf.random.set_seed(11)
for _ in range(10):
    logits = model(np.array([seed_text[-window:]]), training=False)
    seed_text.append(int(tf.random.categorical(logits / 0.5, 1)[0, 0]))
print('generated', repr(''.join(chars[i] for i in seed_text[window:])))
